package org.ketama;

/** The server label cannot be parsed (core's {@code BadLabel}). */
public class BadLabelException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public BadLabelException(String message) {
        super("BadLabel", message);
    }
}
