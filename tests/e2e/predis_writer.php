<?php
// Writes keys through Predis 1.1 (Debian php-nrk-predis) with its default client-side
// sharding (PredisCluster, PredisStrategy, HashRing: our profile `predis`), then checks that
// each server holds exactly the keys Predis routed to it.
//   php predis_writer.php SERVERS_FILE KEYS_FILE
// SERVERS_FILE: "host:port weight" lines (each a connection with `?weight=`). Each key is
// stored with the value "w:" + key. Prints "stored=N" and the keys per server; exit 1 on a
// failure. Loopback servers only; every connection has a 5 s timeout.
declare(strict_types=1);

require_once getenv('PREDIS_AUTOLOAD') ?: '/usr/share/php/Predis/autoload.php';

[, $serversFile, $keysFile] = $argv;
$uris = [];
foreach (file($serversFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    [$label, $weight] = preg_split('/\s+/', trim($line));
    if (strncmp($label, '127.', 4) !== 0) { // loopback (127.0.0.0/8) only
        fwrite(STDERR, "loopback only: $label\n");
        exit(2);
    }
    $uris[] = "tcp://$label?weight=$weight&timeout=5&read_write_timeout=5";
}
$client = new Predis\Client($uris); // the default options: Predis's own HashRing
$keys = file($keysFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
foreach (array_chunk($keys, 500) as $chunk) {
    $replies = $client->pipeline(static function ($pipe) use ($chunk): void {
        foreach ($chunk as $key) {
            $pipe->set($key, "w:$key");
        }
    });
    foreach ($replies as $i => $reply) {
        if ((string) $reply !== 'OK') {
            fwrite(STDERR, "set '{$chunk[$i]}': $reply\n");
            exit(1);
        }
    }
}
$routed = [];
foreach ($keys as $key) {
    $label = (string) $client->getConnection()->getConnectionByKey($key);
    $routed[$label] = ($routed[$label] ?? 0) + 1;
}
$per = [];
foreach ($client->getConnection() as $conn) {
    $label = (string) $conn;
    $one = new Predis\Client("tcp://$label?timeout=5&read_write_timeout=5");
    $held = $one->dbsize();
    $one->disconnect();
    if ($held !== ($routed[$label] ?? 0)) {
        fwrite(STDERR, "$label holds $held keys, Predis routed " . ($routed[$label] ?? 0) . " there\n");
        exit(1);
    }
    $per[] = $held;
}
echo 'stored=' . count($keys) . ' per server: ' . implode(' ', $per) . "\n";
