package org.ketama;

/** No profile has this name (core's {@code UnknownProfile}). */
public class UnknownProfileException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public UnknownProfileException(String message) {
        super("UnknownProfile", message);
    }
}
