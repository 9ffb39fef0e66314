package org.ketama;

/** A bucket count above the bucket function's limit (core's {@code TooManyBuckets}). */
public class TooManyBucketsException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public TooManyBucketsException(String message) {
        super("TooManyBuckets", message);
    }
}
