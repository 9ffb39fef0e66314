package org.ketama;

/** No server owns this key (every server got no points, or the client returns none) (core's {@code NoServer}). */
public class NoServerException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public NoServerException(String message) {
        super("NoServer", message);
    }
}
