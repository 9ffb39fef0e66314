<?php
// Composer's autoloader when `composer install` was run, else a minimal PSR-4 one.
declare(strict_types=1);

$composer = __DIR__ . '/../vendor/autoload.php';
if (is_file($composer)) {
    require $composer;
} else {
    spl_autoload_register(static function (string $class): void {
        $prefixes = ['Ketama\\Tests\\' => __DIR__ . '/', 'Ketama\\' => __DIR__ . '/../src/'];
        foreach ($prefixes as $prefix => $dir) {
            if (strncmp($class, $prefix, strlen($prefix)) === 0) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require $file;
                }
                return;
            }
        }
    });
    require __DIR__ . '/../src/functions.php';
}
