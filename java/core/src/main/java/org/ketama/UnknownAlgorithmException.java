package org.ketama;

/** No bucket function has this name (core's {@code UnknownAlgorithm}). */
public class UnknownAlgorithmException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public UnknownAlgorithmException(String message) {
        super("UnknownAlgorithm", message);
    }
}
