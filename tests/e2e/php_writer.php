<?php
// Writes keys through php-memcached with OPT_LIBKETAMA_COMPATIBLE (libmemcached's
// KETAMA_WEIGHTED md5 continuum: our profile php-memcached / libmemcached-weighted).
//   php php_writer.php SERVERS_FILE KEYS_FILE
// Each key is stored with the value "w:" + key. Prints "stored=N failed=M"; exit 1 on failure.
declare(strict_types=1);

[, $serversFile, $keysFile] = $argv;
$m = new Memcached();
$m->setOption(Memcached::OPT_LIBKETAMA_COMPATIBLE, true);
$m->setOption(Memcached::OPT_CONNECT_TIMEOUT, 2000);
foreach (file($serversFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $label) {
    [$host, $port] = explode(':', trim($label));
    if (strncmp($host, '127.', 4) !== 0) { // loopback (127.0.0.0/8) only
        fwrite(STDERR, "loopback only: $label\n");
        exit(2);
    }
    $m->addServer($host, (int) $port);
}
$stored = $failed = 0;
foreach (file($keysFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $key) {
    if ($m->set($key, "w:$key")) {
        $stored++;
    } else {
        $failed++;
        fwrite(STDERR, "set '$key': " . $m->getResultMessage() . "\n");
    }
}
echo "stored=$stored failed=$failed\n";
exit($failed === 0 ? 0 : 1);
