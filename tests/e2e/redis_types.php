<?php
// Keys of every Redis type with TTLs, written and read through a real PHP client's own
// sharding: Predis 1.1 (Debian php-nrk-predis; its default HashRing = our profile `predis`) or
// phpredis's RedisArray (Debian php8.2-redis; its default placement = `phpredis-array`).
//   php redis_types.php write predis|redisarray SERVERS_FILE N BASE_MS
//   php redis_types.php read  predis|redisarray SERVERS_FILE N BASE_MS
// SERVERS_FILE: "host:port [weight]" lines. Key i ("t:i") has type i % 6: string, hash,
// list, set, sorted set, stream; every third key has no TTL, the others expire at the
// absolute time BASE_MS + 600000 + i * 37 ms (PEXPIREAT). `read` checks each key where the
// client looks for it: its type, its value and its remaining TTL (within a second of the
// expiry written); prints "hits=H total=N" (H: keys found equal in all three), then each
// failure on its own line (at most 20); exit 1 when a key fails. Loopback servers only; every
// connection has a 5 s timeout.
declare(strict_types=1);

[, $verb, $client, $serversFile, $n, $base] = $argv;
$n = (int) $n;
$base = (int) $base;
$labels = [];
$weights = [];
foreach (file($serversFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $f = preg_split('/\s+/', trim($line));
    if (strncmp($f[0], '127.', 4) !== 0) { // loopback (127.0.0.0/8) only
        fwrite(STDERR, "loopback only: {$f[0]}\n");
        exit(2);
    }
    $labels[] = $f[0];
    $weights[] = (int) ($f[1] ?? 1);
}

const TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream'];

/** The expected value of key i, in the form read() returns. */
function expected(int $i): array
{
    switch ($i % 6) {
        case 0: return ['v' => "v:$i"];
        case 1: return ['f1' => "a$i", 'f2' => "b$i"];
        case 2: return ["x$i", "y$i", "z$i"];
        case 3: return ["m$i", "n$i"];
        case 4: return ["p$i" => (string) $i, "q$i" => "$i.5"];
        default: return ['f' => "s$i", 'g' => "t$i"];
    }
}

/** The absolute expiry of key i in ms, or null for none. */
function expiry(int $i, int $base): ?int
{
    return $i % 3 === 0 ? null : $base + 600000 + $i * 37;
}

/** A command on the one server the client places `key` on: [connection, run(cmd...)] */
function node($client, string $key): callable
{
    if ($client instanceof Predis\Client) {
        $conn = $client->getConnection()->getConnectionByKey($key);
        return static fn (...$cmd) => $conn->executeCommand(Predis\Command\RawCommand::create(...$cmd));
    }
    $r = $client->_instance($client->_target($key));
    return static fn (...$cmd) => $r->rawCommand(...$cmd);
}

/** The type of `key` as Redis names it (phpredis answers TYPE with a constant). */
function type_of($client, callable $run, string $key): string
{
    if ($client instanceof Predis\Client) {
        return (string) $run('TYPE', $key);
    }
    $names = [
        Redis::REDIS_STRING => 'string', Redis::REDIS_HASH => 'hash', Redis::REDIS_LIST => 'list',
        Redis::REDIS_SET => 'set', Redis::REDIS_ZSET => 'zset', Redis::REDIS_STREAM => 'stream',
    ];
    return $names[$client->_instance($client->_target($key))->type($key)] ?? 'none';
}

function write_key(callable $run, int $i, string $key, int $base): void
{
    $x = expected($i);
    switch ($i % 6) {
        case 0: $run('SET', $key, $x['v']); break;
        case 1: $run('HSET', $key, 'f1', $x['f1'], 'f2', $x['f2']); break;
        case 2: $run('RPUSH', $key, ...$x); break;
        case 3: $run('SADD', $key, ...$x); break;
        case 4: $run('ZADD', $key, $i, "p$i", $i + 0.5, "q$i"); break;
        default: $run('XADD', $key, '*', 'f', $x['f'], 'g', $x['g']);
    }
    $at = expiry($i, $base);
    if ($at !== null) {
        $run('PEXPIREAT', $key, (string) $at);
    }
}

/** The key's value as read, in the form of expected(). */
function read_key(callable $run, int $i, string $key): array
{
    $pairs = static function (array $flat): array {
        $out = [];
        for ($j = 0; $j + 1 < count($flat); $j += 2) {
            $out[(string) $flat[$j]] = (string) $flat[$j + 1];
        }
        return $out;
    };
    switch ($i % 6) {
        case 0: return ['v' => (string) $run('GET', $key)];
        case 1: $h = $pairs($run('HGETALL', $key)); ksort($h); return $h;
        case 2: return array_map('strval', $run('LRANGE', $key, '0', '-1'));
        case 3: $s = array_map('strval', $run('SMEMBERS', $key)); sort($s); return $s;
        case 4: return $pairs($run('ZRANGE', $key, '0', '-1', 'WITHSCORES'));
        default:
            $entries = $run('XRANGE', $key, '-', '+');
            return count($entries) === 1 ? $pairs($entries[0][1]) : [];
    }
}

if ($client === 'predis') {
    require_once getenv('PREDIS_AUTOLOAD') ?: '/usr/share/php/Predis/autoload.php';
    $uris = [];
    foreach ($labels as $j => $l) {
        $uris[] = "tcp://$l?weight={$weights[$j]}&timeout=5&read_write_timeout=5";
    }
    $c = new Predis\Client($uris); // the default options: Predis's own HashRing
} elseif ($client === 'redisarray') {
    // RedisArray's defaults: no consistent hashing, crc32 of the whole key (no function),
    // the range placement of our profile `phpredis-array`.
    $c = new RedisArray($labels, ['connect_timeout' => 5, 'read_timeout' => 5]);
} else {
    fwrite(STDERR, "unknown client $client\n");
    exit(2);
}

$now = static fn (): int => (int) floor(microtime(true) * 1000);
if ($verb === 'write') {
    for ($i = 0; $i < $n; $i++) {
        write_key(node($c, "t:$i"), $i, "t:$i", $base);
    }
    echo "written=$n\n";
    exit(0);
}
$hits = 0;
$bad = [];
for ($i = 0; $i < $n; $i++) {
    $key = "t:$i";
    $run = node($c, $key);
    $type = type_of($c, $run, $key);
    $value = $type === TYPES[$i % 6] ? read_key($run, $i, $key) : null;
    $pttl = (int) $run('PTTL', $key);
    $at = expiry($i, $base);
    $want = expected($i);
    if ($i % 6 === 1) {
        ksort($want);
    }
    $why = null;
    if ($type !== TYPES[$i % 6]) {
        $why = "type $type, want " . TYPES[$i % 6];
    } elseif ($value !== $want) {
        $why = 'value ' . json_encode($value) . ', want ' . json_encode($want);
    } elseif ($at === null && $pttl !== -1) {
        $why = "pttl $pttl, want none";
    } elseif ($at !== null && abs($pttl - ($at - $now())) > 1000) {
        $why = "pttl $pttl, want " . ($at - $now()) . ' within a second';
    }
    if ($why === null) {
        $hits++;
    } elseif (count($bad) < 20) {
        $bad[] = "$key: $why";
    }
}
echo "hits=$hits total=$n\n";
foreach ($bad as $b) {
    echo "$b\n";
}
exit($hits === $n ? 0 : 1);
