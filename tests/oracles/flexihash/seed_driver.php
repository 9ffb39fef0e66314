<?php
// Drive the user's FlexiHash class (SeedFlexiHash.php) for one job read as JSON on stdin:
//   {"mode": "lookup", "servers": ["label", ...], "keys": [...]}  -> {"expect": [label|null]}
//   {"mode": "hash", "keys": [...]}                               -> {"expect": [int]}
//   {"mode": "collision", "prefix": "10.9.", "port": 11211}       -> {"pair": [a, b]}
// PHP warnings (lookup() reading a missing array index) go to stderr, not into the JSON.
ini_set('display_errors', 'stderr');
error_reporting(E_ALL);
require __DIR__ . '/SeedFlexiHash.php';

$job = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
$out = [];
switch ($job['mode']) {
    case 'lookup':
        $fh = new FlexiHash();
        foreach ($job['servers'] as $s) {
            $fh->addServer($s);
        }
        $out['expect'] = [];
        foreach ($job['keys'] as $k) {
            $r = @$fh->lookup($k); // null below the smallest point (missing index)
            $out['expect'][] = $r;
        }
        break;
    case 'hash':
        $fh = new FlexiHash();
        $out['expect'] = array_map(fn($k) => $fh->toHash($k), $job['keys']);
        break;
    case 'collision':
        // first label (in a fixed enumeration) whose toHash equals an earlier label's
        $fh = new FlexiHash();
        $seen = [];
        for ($i = 0; $i < 256 * 250; $i++) {
            $label = sprintf('%s%d.%d:%d', $job['prefix'], intdiv($i, 250), $i % 250 + 1, $job['port']);
            $h = $fh->toHash($label);
            if (isset($seen[$h])) {
                $out['pair'] = [$seen[$h], $label];
                $out['hash'] = $h;
                break;
            }
            $seen[$h] = $label;
        }
        break;
    default:
        throw new Exception('unknown mode');
}
echo json_encode($out, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
