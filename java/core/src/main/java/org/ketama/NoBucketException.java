package org.ketama;

/** The reference bucket function returns no bucket for this input (core's {@code NoBucket}). */
public class NoBucketException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public NoBucketException(String message) {
        super("NoBucket", message);
    }
}
