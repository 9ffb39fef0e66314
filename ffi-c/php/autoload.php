<?php
// Loads the Ketama PHP wrapper without Composer: `require 'path/to/ffi-c/php/autoload.php';`
// (with Composer, its own autoloader does the same from composer.json).
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'Ketama\\', 7) === 0) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 7)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
require_once __DIR__ . '/src/functions.php';
