# Sourced by the test and oracle scripts: installs the Debian packages a script needs when
# they are missing, the same way everywhere.
#
#   source "$root/tests/lib/need.sh"
#   need_packages gcc valgrind php8.2-cli      # installs the ones not installed yet
#   need_packages --cmd javac default-jdk-headless   # only when the command is missing
#
# Runs apt-get through sudo when not root, updates the package lists once per run, retries
# while another apt holds the dpkg lock, and says what it installs on stderr.

# Whether Debian package $1 is installed.
need_have() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

need_packages() {
    local cmd="" missing=() p sudo_="" attempt
    if [[ ${1:-} == --cmd ]]; then
        cmd=$2
        shift 2
        command -v "$cmd" >/dev/null 2>&1 && return 0
    fi
    for p in "$@"; do
        if [[ -n $cmd ]] || ! need_have "$p"; then
            missing+=("$p")
        fi
    done
    ((${#missing[@]})) || return 0
    echo "installing (apt): ${missing[*]}" >&2
    [[ $(id -u) == 0 ]] || sudo_=sudo
    if [[ -z ${NEED_APT_UPDATED:-} ]]; then
        $sudo_ apt-get update -qq
        export NEED_APT_UPDATED=1
    fi
    for attempt in 1 2 3 4 5 6; do
        if DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null; then
            return 0
        fi
        echo "apt-get install failed (dpkg lock?), retry $attempt" >&2
        sleep 10
    done
    echo "could not install: ${missing[*]}" >&2
    return 1
}
