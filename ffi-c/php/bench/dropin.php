<?php
// The flexihash drop-ins beside the originals, same machine, one run (placement checked
// equal first): pda/flexihash v3.0.0 (from $FLEXIHASH_SRC or the local mirror; skipped if
// absent) vs Ketama\Flexihash\Flexihash, and the user's PHP FlexiHash class
// (tests/oracles/flexihash/SeedFlexiHash.php) vs Ketama\FlexiHash.
//
//   php -d ffi.enable=1 ffi-c/php/bench/dropin.php [targets=10] [keys=20000] [repeat=5]
declare(strict_types=1);

require dirname(__DIR__) . '/autoload.php';
require dirname(__DIR__, 3) . '/tests/oracles/flexihash/SeedFlexiHash.php';

const PIN = 'a8f9a3bf8fa9d5577369e472ba06cf538995236d';
[$targets, $nKeys, $repeat] = [(int) ($argv[1] ?? 10), (int) ($argv[2] ?? 20000), (int) ($argv[3] ?? 5)];

function best_ns(callable $f, int $per, int $repeat): float
{
    $best = INF;
    for ($i = 0; $i < $repeat; $i++) {
        $t = hrtime(true);
        $f();
        $best = min($best, hrtime(true) - $t);
    }
    return $best / $per;
}

function row(string $what, float $theirs, float $ours): void
{
    printf("%-44s %12s %12s %8.1fx\n", $what, number_format($theirs), number_format($ours), $theirs / $ours);
}

function original(): bool
{
    $dir = sys_get_temp_dir() . '/ketama-flexihash-' . PIN;
    if (!is_file("$dir/src/Flexihash.php")) {
        foreach ([getenv('FLEXIHASH_SRC') ?: '', (getenv('KETAMA_MIRROR') ?: '/work/.mirror') . '/pda+flexihash/repo'] as $git) {
            if ($git !== '' && is_dir($git)) {
                @mkdir($dir, 0777, true);
                exec(sprintf('git -C %s archive %s src | tar x -C %s 2>/dev/null', escapeshellarg($git), PIN, escapeshellarg($dir)));
                break;
            }
        }
    }
    if (!is_file("$dir/src/Flexihash.php")) {
        return false;
    }
    spl_autoload_register(static function (string $class) use ($dir): void {
        if (strncmp($class, 'Flexihash\\', 10) === 0) {
            require "$dir/src/" . str_replace('\\', '/', substr($class, 10)) . '.php';
        }
    });
    return true;
}

mt_srand(1);
$names = [];
for ($i = 0; $i < $targets; $i++) {
    $names[] = sprintf('10.0.%d.%d:11211', intdiv($i, 250), $i % 250 + 1);
}
$keys = [];
for ($i = 0; $i < $nKeys; $i++) {
    $keys[] = 'user:' . mt_rand();
}
printf("PHP %s, %s, %d targets, %d keys, best of %d, load average %s\n", PHP_VERSION, php_uname('m'), $targets, $nKeys, $repeat,
    implode(', ', array_map(fn ($x) => sprintf('%.2f', $x), sys_getloadavg() ?: [])));
printf("%-44s %12s %12s %9s\n", 'ns per key (construction: ns per ring)', 'original', 'ketama', 'speed-up');

if (original()) {
    $theirs = (new Flexihash\Flexihash())->addTargets($names);
    $ours = (new Ketama\Flexihash\Flexihash())->addTargets($names);
    foreach ($keys as $k) {
        if ($theirs->lookup($k) !== $ours->lookup($k)) {
            throw new RuntimeException("placement differs for $k");
        }
    }
    // Both build lazily (flexihash sorts, ours adds the batch) on the first lookup: include it.
    row('flexihash: new + addTargets + first lookup', best_ns(fn () => (new Flexihash\Flexihash())->addTargets($names)->lookup('k'), 1, $repeat),
        best_ns(fn () => (new Ketama\Flexihash\Flexihash())->addTargets($names)->lookup('k'), 1, $repeat));
    $theirs = (new Flexihash\Flexihash())->addTargets($names);
    $theirs->lookup('warm'); // flexihash sorts on the first lookup
    row('flexihash: lookup(key)', best_ns(function () use ($theirs, $keys) {
        foreach ($keys as $k) {
            $theirs->lookup($k);
        }
    }, $nKeys, $repeat), best_ns(function () use ($ours, $keys) {
        foreach ($keys as $k) {
            $ours->lookup($k);
        }
    }, $nKeys, $repeat));
    row('flexihash: lookupList(key, 2)', best_ns(function () use ($theirs, $keys) {
        foreach ($keys as $k) {
            $theirs->lookupList($k, 2);
        }
    }, $nKeys, $repeat), best_ns(function () use ($ours, $keys) {
        foreach ($keys as $k) {
            $ours->lookupList($k, 2);
        }
    }, $nKeys, $repeat));
    // A hasher of the caller's (not one of flexihash's own): ours searches a ring built from
    // its positions (Ring::fromPoints), the hasher still runs in PHP for every key.
    $sha = new class implements Ketama\Flexihash\Hasher\HasherInterface, Flexihash\Hasher\HasherInterface {
        public function hash($string)
        {
            return hexdec(substr(sha1((string) $string), 0, 7));
        }
    };
    $theirs = (new Flexihash\Flexihash($sha))->addTargets($names);
    $ours = (new Ketama\Flexihash\Flexihash($sha))->addTargets($names);
    foreach ($keys as $k) {
        if ($theirs->lookup($k) !== $ours->lookup($k)) {
            throw new RuntimeException("placement differs for $k (custom hasher)");
        }
    }
    row('flexihash, custom hasher: lookup(key)', best_ns(function () use ($theirs, $keys) {
        foreach ($keys as $k) {
            $theirs->lookup($k);
        }
    }, $nKeys, $repeat), best_ns(function () use ($ours, $keys) {
        foreach ($keys as $k) {
            $ours->lookup($k);
        }
    }, $nKeys, $repeat));
} else {
    echo "flexihash: SKIPPED (pda/flexihash " . PIN . " not at hand; set FLEXIHASH_SRC)\n";
}

$seed = new FlexiHash();
$ours = new Ketama\FlexiHash();
foreach ($names as $n) {
    $seed->addServer($n);
    $ours->addServer($n);
}
foreach ($keys as $k) {
    if (@$seed->lookup($k) !== $ours->lookup($k)) {
        throw new RuntimeException("seed placement differs for $k");
    }
}
row('seed FlexiHash: lookup(key)', best_ns(function () use ($seed, $keys) {
    foreach ($keys as $k) {
        @$seed->lookup($k);
    }
}, $nKeys, $repeat), best_ns(function () use ($ours, $keys) {
    foreach ($keys as $k) {
        $ours->lookup($k);
    }
}, $nKeys, $repeat));
