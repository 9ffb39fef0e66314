<?php
// The one-line change a flexihash user makes (`use Flexihash\X` -> `use Ketama\Flexihash\X`),
// as class aliases, so pda/flexihash's own test suite runs unmodified against our classes.
// Also autoloads the suite's own helper classes (Flexihash\Tests\...) from $FLEXIHASH_TESTS.
declare(strict_types=1);

require dirname(__DIR__, 2) . '/ffi-c/php/autoload.php';

foreach (['Flexihash', 'Exception', 'Hasher\\HasherInterface', 'Hasher\\Crc32Hasher', 'Hasher\\Md5Hasher'] as $name) {
    class_alias("Ketama\\Flexihash\\$name", "Flexihash\\$name");
}

$tests = getenv('FLEXIHASH_TESTS') ?: '';
spl_autoload_register(static function (string $class) use ($tests): void {
    if (strncmp($class, 'Flexihash\\Tests\\', 16) === 0) {
        $file = $tests . '/' . str_replace('\\', '/', substr($class, 16)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
