package org.ketama;

/** The ring has no servers (core's {@code EmptyRing}). */
public class EmptyRingException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public EmptyRingException(String message) {
        super("EmptyRing", message);
    }
}
