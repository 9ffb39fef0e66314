<?php
// opcache.preload script: php.ini
//   opcache.preload=/path/to/ffi-c/php/preload.php
//   opcache.preload_user=www-data
//   ffi.enable=preload
// Loads libketama's declarations once into the FFI scope "KETAMA" (Ketama\Library::ffi()
// then uses FFI::scope instead of parsing the header per request) and preloads the classes.
declare(strict_types=1);

// The interfaces and traits a class uses come before it (no autoloader runs while preloading).
foreach (['Status', 'KetamaException', 'Library', 'Ring/Input', 'Ring/Changes', 'Ring/Lookup', 'Ring/Walk', 'Ring/Inspect', 'Ring/Options', 'Ring', 'functions'] as $f) {
    require_once __DIR__ . "/src/$f.php";
}
Ketama\Library::preload();
