package org.ketama;

/** The profile does not place keys on a continuum of 32-bit points, which the call needs (core's {@code NotAContinuum}). */
public class NotAContinuumException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public NotAContinuumException(String message) {
        super("NotAContinuum", message);
    }
}
