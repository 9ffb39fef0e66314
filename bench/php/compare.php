<?php
// Side-by-side speed of Ketama\Ring::get / getMany (our library through PHP FFI) and
// php-memcached's Memcached::getServerByKey on the same OPT_LIBKETAMA_COMPATIBLE ring (profile
// php-memcached), same servers, same keys, one process; part of bench/compare.sh.
//
//   php -d ffi.enable=1 bench/php/compare.php SERVERS [SERVERS ...]
//
// Prints one tab-separated line per measurement: `path servers anchor_ns ours_ns` (anchor `-`
// above 100 servers: Debian's libmemcached 1.1.4 aborts on the 101st server of a consistent
// ring, an assertion left on; docs/client-notes.md). Answers are compared on every key first (a difference exits 1). Times: the
// best of many short runs of 500 keys, anchor and ours alternating.
declare(strict_types=1);
require __DIR__ . '/../../ffi-c/php/autoload.php';

const CHUNK = 500;
$nkeys = (int) (getenv('BENCH_KEYS') ?: 20000);
$budget = (float) (getenv('BENCH_BUDGET') ?: 0.3);
$keys = [];
for ($i = 0; $i < $nkeys; $i++) {
    $keys[] = "user:$i:profile";
}
$chunks = array_chunk($keys, CHUNK);

/** @param list<callable(list<string>): void> $runs @return list<float> best ns/key of each */
function race(array $runs, array $chunks, float $budget): array
{
    $best = array_fill(0, count($runs), INF);
    $start = hrtime(true);
    for ($r = 0; $r < 2 * count($chunks) || (hrtime(true) - $start) / 1e9 < $budget; $r++) {
        $chunk = $chunks[$r % count($chunks)];
        foreach ($runs as $i => $run) {
            $t = hrtime(true);
            $run($chunk);
            $best[$i] = min($best[$i], (hrtime(true) - $t) / count($chunk));
        }
    }
    return $best;
}

foreach (array_slice($argv, 1) as $arg) {
    $n = (int) $arg;
    $servers = [];
    $m = $n <= 100 ? new Memcached() : null;
    $m?->setOption(Memcached::OPT_LIBKETAMA_COMPATIBLE, true);
    for ($i = 0; $i < $n; $i++) {
        $host = sprintf('10.%d.%d.%d', intdiv($i, 62500), intdiv($i, 250) % 250, $i % 250 + 1);
        $servers["$host:11211"] = 1;
        $m?->addServer($host, 11211, 1);
    }
    $ring = new Ketama\Ring($servers, 'php-memcached');
    $many = $ring->getMany($keys);
    foreach ($keys as $i => $k) {
        $ours = $ring->get($k);
        $s = $m?->getServerByKey($k);
        if ($ours !== $many[$i] || ($s !== null && $s['host'] . ':' . $s['port'] !== $ours)) {
            fwrite(STDERR, "compare.php: answers differ for $k ($n servers)\n");
            exit(1);
        }
    }
    $runGet = static function (array $chunk) use ($ring): void {
        foreach ($chunk as $k) {
            $ring->get($k);
        }
    };
    $runMany = static function (array $chunk) use ($ring): void {
        $ring->getMany($chunk);
    };
    $runs = [$runGet, $runMany];
    if ($m !== null) {
        $runs[] = static function (array $chunk) use ($m): void {
            foreach ($chunk as $k) {
                $m->getServerByKey($k);
            }
        };
    }
    $t = race($runs, $chunks, $budget);
    $anchor = $m !== null ? sprintf('%.1f', $t[2]) : '-';
    printf("php_get\t%d\t%s\t%.1f\n", $n, $anchor, $t[0]);
    printf("php_get_many\t%d\t%s\t%.1f\n", $n, $anchor, $t[1]);
}
