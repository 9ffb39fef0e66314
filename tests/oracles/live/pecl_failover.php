<?php
// Driven by pecl_failover.py: pecl memcache (class Memcache) with some servers dead.
// Usage: php -d memcache.hash_strategy=S pecl_failover.php JOB.json OUT.json
// JOB: {"servers": [{"host","port","weight"}], "live": [indexes], "keys": [...], "token": "..."}
// Every key is stored through a pool of all the servers (the dead ones refuse connections);
// then a one-server Memcache per live server reads the key back. OUT: per key the index of the
// live server that holds it with this token, or null when set() failed; and the ini settings.
if ($argc !== 3 || !extension_loaded('memcache')) {
    fwrite(STDERR, "usage: pecl_failover.php JOB.json OUT.json (needs the memcache extension)\n");
    exit(2);
}
$job = json_decode(file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
$pool = new Memcache();
foreach ($job['servers'] as $s) {
    // addServer(host, port, persistent, weight, timeout, retry_interval)
    if (!$pool->addServer($s['host'], $s['port'], false, $s['weight'], 1, 15)) {
        fwrite(STDERR, "addServer failed\n");
        exit(1);
    }
}
$single = [];
foreach ($job['live'] as $i) {
    $m = new Memcache();
    $m->addServer($job['servers'][$i]['host'], $job['servers'][$i]['port'], false, 1, 1, 15);
    $single[$i] = $m;
}
$out = [];
foreach ($job['keys'] as $k) {
    $ok = @$pool->set($k, $job['token'], 0, 0);
    if ($ok !== true) {
        $out[] = null;
        continue;
    }
    $held = [];
    foreach ($single as $i => $m) {
        if (@$m->get($k) === $job['token']) {
            $held[] = $i;
        }
    }
    if (count($held) !== 1) {
        fwrite(STDERR, "key " . json_encode($k) . " held by " . json_encode($held) . "\n");
        exit(1);
    }
    $out[] = $held[0];
}
$ini = [];
foreach (['hash_strategy', 'hash_function', 'allow_failover', 'max_failover_attempts'] as $n) {
    $ini["memcache.$n"] = ini_get("memcache.$n");
}
file_put_contents($argv[2], json_encode(['ini' => $ini, 'results' => $out],
    JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES));
