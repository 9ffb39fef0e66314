package org.ketama;

/** The weight is not accepted by this profile's client (core's {@code BadWeight}). */
public class BadWeightException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public BadWeightException(String message) {
        super("BadWeight", message);
    }
}
