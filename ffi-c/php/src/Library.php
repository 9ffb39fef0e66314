<?php

declare(strict_types=1);

namespace Ketama;

use FFI;

/**
 * Finds and loads libketama through FFI (one instance per process).
 *
 * The library: `$KETAMA_LIB` if set, else the installed `libketama.so.0` (/usr/local/lib,
 * /usr/lib, /usr/lib/<multiarch>), else this repository's `target/release` then
 * `target/debug`. The declarations: `$KETAMA_FFI_HEADER` if set, else
 * `<prefix>/share/ketama/ketama_ffi_php.h` beside an installed library, else the
 * repository's `include/ketama_ffi_php.h`.
 *
 * With `opcache.preload` pointing at `preload.php` (and `ffi.enable=preload`), the
 * declarations are loaded once into the FFI scope `KETAMA` and reused by every request.
 */
final class Library
{
    public const SCOPE = 'KETAMA';

    private static ?FFI $ffi = null;

    public static function ffi(): FFI
    {
        if (self::$ffi !== null) {
            return self::$ffi;
        }
        try {
            self::$ffi = FFI::scope(self::SCOPE);
            return self::$ffi;
        } catch (\Throwable $e) {
            // not preloaded: load it ourselves
        }
        $lib = self::libraryPath();
        $header = self::headerPath($lib);
        $decls = file_get_contents($header);
        if ($decls === false) {
            throw new KetamaException("cannot read $header", KetamaException::LIBRARY_NOT_FOUND);
        }
        try {
            self::$ffi = FFI::cdef($decls, $lib);
        } catch (\Throwable $e) {
            throw new KetamaException("cannot load $lib: " . $e->getMessage(), KetamaException::LIBRARY_NOT_FOUND, $e);
        }
        return self::$ffi;
    }

    /** For `opcache.preload`: defines the FFI scope `KETAMA` (see preload.php). */
    public static function preload(): void
    {
        $lib = self::libraryPath();
        $decls = file_get_contents(self::headerPath($lib));
        $file = sys_get_temp_dir() . '/ketama-ffi-' . md5($lib . $decls) . '.h';
        if (!is_file($file)) {
            $text = sprintf("#define FFI_SCOPE \"%s\"\n#define FFI_LIB \"%s\"\n%s", self::SCOPE, $lib, $decls);
            file_put_contents($file . '.tmp', $text);
            rename($file . '.tmp', $file);
        }
        FFI::load($file);
    }

    public static function libraryPath(): string
    {
        $env = getenv('KETAMA_LIB');
        if ($env !== false && $env !== '') {
            return $env;
        }
        $candidates = ['/usr/local/lib/libketama.so.0', '/usr/lib/libketama.so.0'];
        foreach (glob('/usr/lib/*-linux-gnu*/libketama.so.0') ?: [] as $multiarch) {
            $candidates[] = $multiarch;
        }
        $repo = dirname(__DIR__, 3);
        $candidates[] = "$repo/target/release/libketama.so";
        $candidates[] = "$repo/target/debug/libketama.so";
        foreach ($candidates as $c) {
            if (is_file($c)) {
                return $c;
            }
        }
        throw new KetamaException(
            'libketama not found: set KETAMA_LIB, run `make -C ffi-c install`, or `cargo build -p ketama-ffi`',
            KetamaException::LIBRARY_NOT_FOUND
        );
    }

    public static function headerPath(string $lib): string
    {
        $env = getenv('KETAMA_FFI_HEADER');
        if ($env !== false && $env !== '') {
            return $env;
        }
        $prefix = dirname(dirname($lib));
        $candidates = [
            "$prefix/share/ketama/ketama_ffi_php.h",
            dirname($prefix) . '/share/ketama/ketama_ffi_php.h', // lib/<multiarch>/
            dirname(__DIR__, 3) . '/include/ketama_ffi_php.h',
        ];
        foreach ($candidates as $c) {
            if (is_file($c)) {
                return $c;
            }
        }
        throw new KetamaException('ketama_ffi_php.h not found: set KETAMA_FFI_HEADER', KetamaException::LIBRARY_NOT_FOUND);
    }

    /** Throws the exception for a failed status. */
    public static function check(int $status): void
    {
        if ($status !== 0) {
            throw KetamaException::of(self::message($status), $status);
        }
    }

    public static function message(int $status): string
    {
        $m = self::ffi()->ketama_status_str($status);
        return is_string($m) ? $m : FFI::string($m);
    }

    public static function version(): string
    {
        $v = self::ffi()->ketama_version();
        return is_string($v) ? $v : FFI::string($v);
    }
}
