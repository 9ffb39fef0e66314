<?php

declare(strict_types=1);

namespace Ketama\Ring;

use FFI;
use Ketama\KetamaException;
use Ketama\Library;

/**
 * Input rules of {@see \Ketama\Ring} (see its class doc): server entries, weights and
 * getMany() keys checked as the library takes them, and how messages show what was refused.
 *
 * @internal a part of {@see \Ketama\Ring}, used by it alone
 */
trait Input
{
    /** Library::check(), with the server label in the message. */
    private static function checkFor(int $status, string $label): void
    {
        if ($status !== 0) {
            throw KetamaException::of(Library::message($status) . ": server '" . self::show($label) . "'", $status, null, $label);
        }
    }

    /** A label or value for a message: at most 80 bytes, bytes outside printable ASCII as \xNN. */
    private static function show(string $s): string
    {
        $len = strlen($s);
        $shown = (string) preg_replace_callback('/[^\x20-\x7e]/', fn ($m) => sprintf('\\x%02x', ord($m[0])), substr($s, 0, 80));
        return $len > 80 ? "$shown... ($len bytes)" : $shown;
    }

    /**
     * One getMany() key as get()'s string parameter takes it: strings as they are; ints,
     * floats, bools and Stringable objects converted as PHP converts them; anything else
     * refused.
     *
     * @param mixed $key
     */
    private static function keyString($key): string
    {
        if (is_string($key)) {
            return $key;
        }
        if (is_int($key) || is_float($key) || is_bool($key) || $key instanceof \Stringable) {
            return (string) $key;
        }
        throw new \TypeError(sprintf('getMany: a key must be a string (or convert to one), got %s', get_debug_type($key)));
    }

    /**
     * One `$servers` entry as [label, weight, name], by the input rules in the class doc.
     *
     * @param int|string $key
     * @param mixed $value
     * @return array{0: string, 1: int, 2: ?string}
     */
    private static function entry($key, $value): array
    {
        if (is_int($key) && is_string($value)) {
            return [$value, 1, null]; // a list of labels
        }
        if (is_array($value)) {
            $label = $value['label'] ?? (is_string($key) ? $key : null);
            if (!is_string($label)) {
                throw self::badLabel($key, "the entry has no string 'label' (an int key is not a label)");
            }
            $name = $value['name'] ?? null;
            if ($name !== null && !is_string($name)) {
                throw KetamaException::of(sprintf(
                    "%s: server '%s' name must be a string, got %s",
                    Library::message(KetamaException::BAD_LABEL),
                    self::show($label),
                    get_debug_type($name)
                ), KetamaException::BAD_LABEL, null, $label);
            }
            return [$label, self::weight($value['weight'] ?? 1, $label), $name];
        }
        if (is_string($key)) {
            return [$key, self::weight($value, $key), null];
        }
        throw self::badLabel($key, sprintf(
            'PHP made a numeric label an int key, or a list holds a %s; write numeric labels as a list of strings or [\'label\' => \'%d\', \'weight\' => w]',
            get_debug_type($value),
            $key
        ));
    }

    /** @param int|string $key */
    private static function badLabel($key, string $why): KetamaException
    {
        return KetamaException::of(
            sprintf('%s: servers entry [%s]: %s', Library::message(KetamaException::BAD_LABEL), var_export($key, true), $why),
            KetamaException::BAD_LABEL
        );
    }

    /**
     * A weight as the library takes it: a PHP int from 0 to 2^32 - 1, nothing converted.
     *
     * @param mixed $w
     */
    private static function weight($w, string $label): int
    {
        if (!is_int($w) || $w < 0 || $w > 0xFFFFFFFF) {
            $shown = is_string($w) ? "'" . self::show($w) . "'" : var_export($w, true);
            throw KetamaException::of(sprintf(
                "%s: server '%s' weight %s (expected an int from 0 to 4294967295)",
                Library::message(KetamaException::BAD_WEIGHT),
                self::show($label),
                is_scalar($w) || $w === null ? $shown : get_debug_type($w)
            ), KetamaException::BAD_WEIGHT, null, $label);
        }
        return $w;
    }

    /** An owned, NUL-terminated C copy of a PHP string. */
    private function cString(string $s): FFI\CData
    {
        $n = strlen($s);
        $c = $this->ffi->new('char[' . ($n + 1) . ']'); // managed: freed with the CData
        FFI::memcpy($c, $s, $n);
        return $c;
    }
}
