package org.ketama;

/**
 * A placement option the profile's client does not have, or a value it refuses (core's
 * {@code BadOption}): {@code hash_tag} is exactly 2 bytes, a key prefix 1..127 bytes without NUL.
 */
public class BadOptionException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public BadOptionException(String message) {
        super("BadOption", message);
    }
}
