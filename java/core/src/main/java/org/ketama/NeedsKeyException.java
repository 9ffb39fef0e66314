package org.ketama;

/** A key hash alone cannot place a key on this profile: its client reads the key itself (core's {@code NeedsKey}). */
public class NeedsKeyException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public NeedsKeyException(String message) {
        super("NeedsKey", message);
    }
}
