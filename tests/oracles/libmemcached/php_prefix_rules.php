<?php
/*
 * php_prefix_rules.php: asks the real php-memcached extension which OPT_PREFIX_KEY values it
 * takes. Part of tests/oracles/libmemcached/ (see README.md there).
 *
 *   php php_prefix_rules.php < cases.jsonl
 *
 * Each input line: {"prefix_hex": "...", "binary": bool}. Per case a fresh Memcached object
 * (OPT_BINARY_PROTOCOL set first when binary), then setOption(OPT_PREFIX_KEY, prefix).
 * Output line per case: {"set": bool (setOption's return), "result": getResultMessage(),
 * "prefix_hex": getOption(OPT_PREFIX_KEY) afterwards}. Nothing connects.
 */
error_reporting(E_ALL & ~E_WARNING);
while (($line = fgets(STDIN)) !== false) {
    $c = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
    $m = new Memcached();
    if ($c['binary'] && !$m->setOption(Memcached::OPT_BINARY_PROTOCOL, true)) {
        fwrite(STDERR, "setOption(OPT_BINARY_PROTOCOL) failed\n");
        exit(5);
    }
    $ok = $m->setOption(Memcached::OPT_PREFIX_KEY, hex2bin($c['prefix_hex']));
    echo json_encode(['set' => $ok, 'result' => $m->getResultMessage(),
        'prefix_hex' => bin2hex($m->getOption(Memcached::OPT_PREFIX_KEY))]), "\n";
}
