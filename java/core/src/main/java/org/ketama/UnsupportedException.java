package org.ketama;

/** The profile cannot place this server or answer this call (core's {@code Unsupported}). */
public class UnsupportedException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public UnsupportedException(String message) {
        super("Unsupported", message);
    }
}
