package org.ketama;

/** A server with this label (or endpoint) is already on the ring (core's {@code DuplicateServer}). */
public class DuplicateServerException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public DuplicateServerException(String message) {
        super("DuplicateServer", message);
    }
}
