<?php
// Driven by live.py: stores every key through pecl memcache (class Memcache) into real
// memcached daemons on loopback and also asks MemcachePool::findServer() for each key.
// Usage: php -d memcache.hash_strategy=S -d memcache.hash_function=F pecl.php JOB.json OUT.json
// JOB: {"vectors": [{"servers": [{"host","port","weight"}], "keys": [...], "token": "..."}]}
// OUT: {"ini": {...}, "results": [[[set_ok, findServer_or_null], ...], ...]}

if ($argc !== 3) {
    fwrite(STDERR, "usage: pecl.php JOB.json OUT.json\n");
    exit(2);
}
if (!extension_loaded('memcache')) {
    fwrite(STDERR, "the memcache extension is not loaded\n");
    exit(1);
}
$job = json_decode(file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
$results = [];
foreach ($job['vectors'] as $v) {
    $m = new Memcache();
    foreach ($v['servers'] as $s) {
        // Memcache::addServer(host, port, persistent, weight)
        if (!$m->addServer($s['host'], $s['port'], false, $s['weight'])) {
            fwrite(STDERR, "addServer failed for {$s['host']}:{$s['port']}\n");
            exit(1);
        }
    }
    $res = [];
    foreach ($v['keys'] as $k) {
        $ok = @$m->set($k, $v['token'], 0, 0);
        $fs = @$m->findServer($k);
        $res[] = [$ok === true, $fs === false ? null : $fs];
    }
    $m->close();
    $results[] = $res;
}
$ini = [];
foreach (['hash_strategy', 'hash_function', 'allow_failover', 'protocol', 'prefix_static_key',
          'prefix_host_key'] as $name) {
    $ini["memcache.$name"] = ini_get("memcache.$name");
}
file_put_contents($argv[2], json_encode(['ini' => $ini, 'results' => $results],
    JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES));
