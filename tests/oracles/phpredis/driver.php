<?php
/*
 * Drives the real phpredis RedisArray (Debian php8.2-redis). Part of tests/oracles/phpredis/
 * (see README.md there).
 *
 *   php driver.php JOBS.json
 *
 * JOBS = [{"consistent": bool, "hosts": ["host:port", ...], "keys": [...]}, ...]
 * Per job: new RedisArray($hosts, ['lazy_connect' => true] (+ 'consistent' => true)), then
 * $ra->_target($key) per key: the host string ra_find_node picks, the node every single-key
 * command uses. No function, distributor, algorithm or previous ring is given, and the
 * redis.arrays.* INI settings must be empty. lazy_connect: nothing connects.
 * Prints a JSON list per job: the index of the returned host in the list given (null when
 * _target returns something else than a host).
 */
$want = '5.3.7';
if (phpversion('redis') !== $want) {
    fwrite(STDERR, "expected phpredis $want, got " . phpversion('redis') . "\n");
    exit(3);
}
foreach (['redis.arrays.algorithm', 'redis.arrays.names', 'redis.arrays.hosts',
          'redis.arrays.functions', 'redis.arrays.distributor', 'redis.arrays.consistent',
          'redis.arrays.previous'] as $ini) {
    $v = ini_get($ini);
    if ($v !== false && $v !== '' && $v !== '0') {
        fwrite(STDERR, "INI $ini is set ($v)\n");
        exit(3);
    }
}
$jobs = json_decode(file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
$out = [];
foreach ($jobs as $job) {
    $opts = ['lazy_connect' => true];
    if ($job['consistent']) {
        $opts['consistent'] = true;
    }
    $ra = new RedisArray($job['hosts'], $opts);
    if ($ra->_hosts() !== $job['hosts']) {
        fwrite(STDERR, "_hosts() differs from the hosts given\n");
        exit(3);
    }
    $index = array_flip($job['hosts']);
    if (count($index) !== count($job['hosts'])) {
        fwrite(STDERR, "duplicate host strings\n");
        exit(3);
    }
    $res = [];
    foreach ($job['keys'] as $key) {
        $t = $ra->_target((string) $key);
        $res[] = is_string($t) && isset($index[$t]) ? $index[$t] : null;
    }
    $out[] = $res;
}
echo json_encode($out), "\n";
