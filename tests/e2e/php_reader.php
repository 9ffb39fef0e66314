<?php
// Reads keys back through the PHP wrapper: Ketama\Client (our Ketama\Ring places each key,
// one php-memcached or pecl memcache connection per server).
//   php -d ffi.enable=1 php_reader.php BACKEND PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]
// BACKEND: memcached or memcache. Without DEAD_LABEL: Client::getMulti over every key (a key
// whose server fails counts as not found). With
// DEAD_LABEL: Ring::failover(key, 7) is walked to the first server that is not DEAD_LABEL and
// the key is read there. A hit is the value "w:" + key. Prints "hits=N total=M", then each
// missed key on its own line.
declare(strict_types=1);

require __DIR__ . '/../../ffi-c/php/autoload.php';

[, $backend, $profile, $serversFile, $keysFile] = $argv;
$dead = $argv[5] ?? null;
$labels = file($serversFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
foreach ($labels as $label) {
    if (strncmp($label, '127.', 4) !== 0) { // loopback (127.0.0.0/8) only
        fwrite(STDERR, "loopback only: $label\n");
        exit(2);
    }
}
$keys = file($keysFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
$client = Ketama\Client::create($labels, $profile, null, $backend);
$found = [];
if ($dead === null) {
    // A stopped server is a failure, not a miss: Client throws ServerException for its keys.
    // Those keys are counted as not found (fleet.py checks they are exactly the stopped
    // server's keys); a chunk holding one is read again key by key.
    foreach (array_chunk($keys, 500) as $chunk) {
        try {
            $found += $client->getMulti($chunk);
        } catch (Ketama\ServerException $e) {
            foreach ($chunk as $key) {
                try {
                    $found += $client->getMulti([$key]);
                } catch (Ketama\ServerException $e) {
                    // the key's server failed: not found
                }
            }
        }
    }
} else {
    $ring = $client->ring();
    foreach ($keys as $key) {
        foreach ($ring->failover($key, 7) as $label) {
            if ($label !== $dead) {
                $conn = $client->connection($label);
                $v = $conn->get($key);
                if ($v !== false) {
                    $found[$key] = $v;
                }
                break;
            }
        }
    }
}
$missed = [];
foreach ($keys as $key) {
    if (($found[$key] ?? null) !== "w:$key") {
        $missed[] = $key;
    }
}
echo 'hits=' . (count($keys) - count($missed)) . ' total=' . count($keys) . "\n";
foreach ($missed as $key) {
    echo $key, "\n";
}
