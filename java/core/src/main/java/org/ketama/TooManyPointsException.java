package org.ketama;

/** More points than one continuum may hold (2^23) (core's {@code TooManyPoints}). */
public class TooManyPointsException extends KetamaException {
    private static final long serialVersionUID = 1L;

    /** An exception with this message. */
    public TooManyPointsException(String message) {
        super("TooManyPoints", message);
    }
}
