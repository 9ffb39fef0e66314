package org.ketama;

/** No hash function has this name (core's {@code UnknownHash}). */
public class UnknownHashException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public UnknownHashException(String message) {
        super("UnknownHash", message);
    }
}
