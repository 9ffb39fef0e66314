package org.ketama;

/** A capacity factor below 1 or with a zero denominator (core's {@code BadFactor}). */
public class BadFactorException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public BadFactorException(String message) {
        super("BadFactor", message);
    }
}
