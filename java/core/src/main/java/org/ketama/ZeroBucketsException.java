package org.ketama;

/** A bucket count of 0 (core's {@code ZeroBuckets}). */
public class ZeroBucketsException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public ZeroBucketsException(String message) {
        super("ZeroBuckets", message);
    }
}
