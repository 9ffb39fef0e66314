<?php
// The real PHP clients of the migrate test (tests/e2e/migrate.sh).
//   php php_migrate.php CLIENT MODE SERVERS_FILE FROM TO [TYPES]
// CLIENT: memcached (php-memcached, OPT_LIBKETAMA_COMPATIBLE, weighted: profile
// libmemcached-weighted) or memcache (pecl memcache, hash_strategy=consistent, crc32: profile
// pecl-memcache). SERVERS_FILE lines are "host:port weight" (loopback only). Keys are
// "k:<i>" for FROM <= i < TO.
// MODE write: stores each key's value (generation 0); keys with i % 7 == 0 get a TTL of 3600 s.
// MODE newer: stores "newer:<i>" (a client already on the new placement).
// MODE v2: stores "v2:<i>"; MODE delete: deletes the keys.
// MODE read: reads every key back; EXPECT (env, default "v0") says what each must be:
// "v0" the generation-0 value, "newer", "v2", or "gone" (a miss). Prints
// "checked=N equal=M", then each mismatch; exit 1 on any mismatch.
// TYPES "typed" (default) stores ints, floats, bools, arrays and strings (their types travel in
// the client flags); "strings" only strings (two different client libraries encode types in
// the flags differently, so a switch between them is tested with strings).
declare(strict_types=1);

[, $client, $mode, $serversFile, $from, $to] = $argv;
$types = $argv[6] ?? 'typed';
$servers = [];
foreach (file($serversFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    [$label, $weight] = preg_split('/\s+/', trim($line)) + [1 => '1'];
    [$host, $port] = explode(':', $label);
    if (strncmp($host, '127.', 4) !== 0) {
        fwrite(STDERR, "loopback only: $label\n");
        exit(2);
    }
    $servers[] = [$host, (int) $port, (int) $weight];
}
if ($client === 'memcached') {
    $m = new Memcached();
    $m->setOption(Memcached::OPT_LIBKETAMA_COMPATIBLE, true);
    $m->setOption(Memcached::OPT_CONNECT_TIMEOUT, 2000);
    foreach ($servers as [$h, $p, $w]) {
        $m->addServer($h, $p, $w);
    }
    $set = fn (string $k, $v, int $ttl) => $m->set($k, $v, $ttl);
    $get = function (string $k) use ($m) {
        $v = $m->get($k);
        return $m->getResultCode() === Memcached::RES_NOTFOUND ? null : [$v];
    };
    $del = fn (string $k) => $m->delete($k);
} elseif ($client === 'memcache') {
    ini_set('memcache.hash_strategy', 'consistent');
    ini_set('memcache.hash_function', 'crc32');
    ini_set('memcache.allow_failover', '0');
    $m = new Memcache();
    foreach ($servers as [$h, $p, $w]) {
        $m->addServer($h, $p, false, $w);
    }
    $set = fn (string $k, $v, int $ttl) => $m->set($k, $v, 0, $ttl);
    $get = function (string $k) use ($m) {
        $flags = null;
        $v = $m->get($k, $flags);
        return $flags === null && $v === false ? null : [$v];
    };
    $del = fn (string $k) => $m->delete($k);
} else {
    fwrite(STDERR, "unknown client $client\n");
    exit(2);
}

function value(int $i, string $types)
{
    if ($types === 'strings') {
        return "v0:$i:" . str_repeat('s', $i % 50);
    }
    switch ($i % 5) {
        case 0: return $i * 1000003;
        case 1: return ['i' => $i, 'list' => [1, 2, $i], 'name' => "n$i"];
        case 2: return $i + 0.25;
        case 3: return $i % 2 === 0;
        default: return "v0:$i:" . str_repeat('s', $i % 50);
    }
}

$from = (int) $from;
$to = (int) $to;
$failed = 0;
if ($mode === 'read') {
    $expect = getenv('EXPECT') ?: 'v0';
    $checked = $equal = 0;
    for ($i = $from; $i < $to; $i++) {
        $k = "k:$i";
        $want = match ($expect) {
            'v0' => [value($i, $types)],
            'newer' => ["newer:$i"],
            'v2' => ["v2:$i"],
            'gone' => null,
        };
        $got = $get($k);
        $checked++;
        if ($got === $want) {
            $equal++;
        } elseif ($failed++ < 20) {
            echo "mismatch $k: want " . json_encode($want) . ' got ' . json_encode($got) . "\n";
        }
    }
    echo "checked=$checked equal=$equal\n";
    exit($equal === $checked ? 0 : 1);
}
for ($i = $from; $i < $to; $i++) {
    $k = "k:$i";
    $ok = match ($mode) {
        'write' => $set($k, value($i, $types), $i % 7 === 0 ? 3600 : 0),
        'newer' => $set($k, "newer:$i", 0),
        'v2' => $set($k, "v2:$i", 0),
        'delete' => $del($k),
    };
    if (!$ok) {
        $failed++;
        fwrite(STDERR, "$mode '$k' failed\n");
    }
}
echo "$mode: " . ($to - $from - $failed) . " of " . ($to - $from) . "\n";
exit($failed === 0 ? 0 : 1);
