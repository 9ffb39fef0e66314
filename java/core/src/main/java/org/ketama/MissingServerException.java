package org.ketama;

/** No server with this label is on the ring (core's {@code MissingServer}). */
public class MissingServerException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public MissingServerException(String message) {
        super("MissingServer", message);
    }
}
