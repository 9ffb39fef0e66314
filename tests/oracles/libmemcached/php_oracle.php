<?php
/*
 * php_oracle.php: drives the real php-memcached extension (Debian php8.2-memcached) for the
 * ketama test vectors. Part of tests/oracles/libmemcached/ (see README.md there).
 *
 *   php php_oracle.php SPEC.json < keys.hex
 *
 * SPEC = {"options": [["OPT_LIBKETAMA_COMPATIBLE", true], ["OPT_HASH", "HASH_CRC"], ...],
 *         "servers": [["10.0.0.1", 11211, 5], ["10.0.0.2", 11211, null], ...]}
 * Options are applied with setOption in order (string values name Memcached constants, {"hex":
 * "..."} is a string given by its bytes, for OPT_PREFIX_KEY), then
 * the servers are added with addServer(host, port[, weight]) in order (null weight = the
 * argument omitted, i.e. php-memcached's default 0). Nothing connects: getServerByKey only
 * computes the placement.
 *
 * Output: one "info ..." line, then per key (stdin, one hex-encoded key per line, an empty line
 * is the empty key) "<host>\t<port>" from getServerByKey, or "null" when it returns false.
 */
$spec = json_decode(file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
$m = new Memcached();
foreach ($spec['options'] as [$name, $value]) {
    $opt = constant('Memcached::' . $name);
    if (is_array($value)) {
        $value = hex2bin($value['hex']);
    } elseif (is_string($value)) {
        $value = constant('Memcached::' . $value);
    }
    if (!$m->setOption($opt, $value)) {
        fwrite(STDERR, "setOption($name) failed\n");
        exit(5);
    }
}
foreach ($spec['servers'] as [$host, $port, $weight]) {
    $ok = $weight === null ? $m->addServer($host, $port) : $m->addServer($host, $port, $weight);
    if (!$ok) {
        fwrite(STDERR, "addServer($host, $port) failed: " . $m->getResultMessage() . "\n");
        exit(5);
    }
}
printf("info php-memcached=%s libmemcached_headers=0x%08x distribution=%d hash=%d libketama_compatible=%d servers=%d prefix_key_hex=%s hash_with_prefix_key=%d\n",
    phpversion('memcached'), Memcached::LIBMEMCACHED_VERSION_HEX ?? 0,
    $m->getOption(Memcached::OPT_DISTRIBUTION), $m->getOption(Memcached::OPT_HASH),
    (int) $m->getOption(Memcached::OPT_LIBKETAMA_COMPATIBLE), count($m->getServerList()),
    bin2hex($m->getOption(Memcached::OPT_PREFIX_KEY)),
    (int) $m->getOption(Memcached::OPT_HASH_WITH_PREFIX_KEY));
$out = '';
while (($line = fgets(STDIN)) !== false) {
    $key = hex2bin(rtrim($line, "\r\n"));
    $s = $m->getServerByKey($key);
    $out .= $s === false ? "null\n" : $s['host'] . "\t" . $s['port'] . "\n";
}
echo $out;
