<?php
/*
 * Drives the real Predis 1.1 (Debian php-nrk-predis) client-side sharding. Part of
 * tests/oracles/predis/ (see README.md there).
 *
 *   php driver.php JOBS.json
 *
 * JOBS = [{"ring": "hashring"|"ketama", "servers": ["tcp://host:port[?weight=W]", ...],
 *          "keys": [...]}, ...]
 * Per job: new Predis\Client($servers, $options) with the default options ("hashring": the
 * default cluster `predis` = PredisCluster(PredisStrategy(HashRing))) or
 * ['cluster' => new PredisCluster(new PredisStrategy(new KetamaRing()))] ("ketama"), then
 * $client->getConnection()->getConnectionByKey($key) per key: the same strategy + distributor
 * call that every single-key command makes. Predis connects lazily; the driver asserts that
 * no connection is open at the end.
 * Prints a JSON list per job: the index of the chosen connection in the order given.
 */
require_once 'Predis/Autoloader.php';
Predis\Autoloader::register();

use Predis\Cluster\Distributor\KetamaRing;
use Predis\Cluster\PredisStrategy;
use Predis\Connection\Aggregate\PredisCluster;

if (Predis\Client::VERSION !== '1.1.10') {
    fwrite(STDERR, 'expected Predis 1.1.10, got ' . Predis\Client::VERSION . "\n");
    exit(3);
}
$jobs = json_decode(file_get_contents($argv[1]), true, 512, JSON_THROW_ON_ERROR);
$out = [];
foreach ($jobs as $job) {
    if ($job['ring'] === 'ketama') {
        $options = ['cluster' => new PredisCluster(new PredisStrategy(new KetamaRing()))];
    } elseif ($job['ring'] === 'hashring') {
        $options = [];
    } else {
        fwrite(STDERR, "unknown ring {$job['ring']}\n");
        exit(3);
    }
    $client = new Predis\Client($job['servers'], $options);
    $cluster = $client->getConnection();
    $expected = $job['ring'] === 'ketama' ? KetamaRing::class : Predis\Cluster\Distributor\HashRing::class;
    if (!$cluster instanceof PredisCluster || get_class($cluster->getClusterStrategy()->getDistributor()) !== $expected) {
        fwrite(STDERR, "unexpected cluster\n");
        exit(3);
    }
    $index = new SplObjectStorage();
    $i = 0;
    foreach ($cluster as $connection) {
        $index[$connection] = $i++;
    }
    if ($i !== count($job['servers'])) {
        fwrite(STDERR, "expected " . count($job['servers']) . " connections, got $i\n");
        exit(3);
    }
    $res = [];
    foreach ($job['keys'] as $key) {
        $conn = $cluster->getConnectionByKey((string) $key);
        $res[] = $conn === null ? null : $index[$conn];
    }
    if ($cluster->isConnected()) {
        fwrite(STDERR, "a connection was opened\n");
        exit(3);
    }
    $out[] = $res;
}
echo json_encode($out), "\n";
