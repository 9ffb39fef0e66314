<?php
// Speed of Ketama\Ring::get (our library through PHP FFI) beside php-memcached's
// Memcached::getServerByKey on the same OPT_LIBKETAMA_COMPATIBLE ring, same keys, one run,
// reported as a ratio; answers are compared too.
// Usage: php -d ffi.enable=1 compare_php.php [servers=50] [keys=100000]
declare(strict_types=1);
require __DIR__ . '/../php/tests/bootstrap.php';

$n = (int) ($argv[1] ?? 50);
$nkeys = (int) ($argv[2] ?? 100000);
$m = new Memcached();
$m->setOption(Memcached::OPT_LIBKETAMA_COMPATIBLE, true);
$servers = [];
for ($i = 0; $i < $n; $i++) {
    $host = sprintf('10.0.%d.%d', intdiv($i, 200), $i % 200 + 1);
    $port = 11211 + $i % 2;
    $m->addServer($host, $port, 1 + $i % 3);
    $servers["$host:$port"] = 1 + $i % 3;
}
$ring = new Ketama\Ring($servers, 'php-memcached');
$keys = [];
for ($i = 0; $i < $nkeys; $i++) {
    $keys[] = 'user:' . ($i * 7919) . ':profile';
}
$differ = 0;
foreach ($keys as $k) {
    $s = $m->getServerByKey($k);
    $differ += ($s['host'] . ':' . $s['port']) === $ring->get($k) ? 0 : 1;
}
$best = ['php-memcached' => INF, 'ketama' => INF, 'ketama getMany' => INF];
for ($r = 0; $r < 3; $r++) {
    $t = hrtime(true);
    foreach ($keys as $k) {
        $m->getServerByKey($k);
    }
    $best['php-memcached'] = min($best['php-memcached'], hrtime(true) - $t);
    $t = hrtime(true);
    foreach ($keys as $k) {
        $ring->get($k);
    }
    $best['ketama'] = min($best['ketama'], hrtime(true) - $t);
    $t = hrtime(true);
    $ring->getMany($keys);
    $best['ketama getMany'] = min($best['ketama getMany'], hrtime(true) - $t);
}
printf("servers %d, keys %d, best of 3\n", $n, $nkeys);
foreach ($best as $name => $ns) {
    printf("%-34s %8.1f ns/key   ratio php-memcached/this %.2fx\n", $name, $ns / $nkeys, $best['php-memcached'] / $ns);
}
printf("answers differing: %d of %d\n", $differ, $nkeys);
exit($differ === 0 ? 0 : 1);
