//! What every verb that lists a server's keys says on stderr about the lines the listing
//! skipped (one line each for the first ones, then the count).

/// Prints the skipped lines of `server`'s listing by `command` (`verb`: the command line's
/// verb, e.g. `audit`): `bad` the first ones (line number, why), `count` all of them.
pub(crate) fn bad_lines<'a>(
    verb: &str,
    server: &str,
    command: &str,
    bad: impl ExactSizeIterator<Item = (u64, &'a str)>,
    count: u64,
) {
    let shown = bad.len() as u64;
    for (line, why) in bad {
        eprintln!(
            "ketama: {verb}: server {server}: line {line} of the reply to `{command}` skipped: {why}"
        );
    }
    if count > shown {
        eprintln!("ketama: {verb}: server {server}: {count} bad lines skipped in all");
    }
}
