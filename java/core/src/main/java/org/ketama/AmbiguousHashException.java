package org.ketama;

/** `crc32` names two functions: `crc` (15-bit) or `crc32a` (full CRC-32) (core's {@code AmbiguousHash}). */
public class AmbiguousHashException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public AmbiguousHashException(String message) {
        super("AmbiguousHash", message);
    }
}
