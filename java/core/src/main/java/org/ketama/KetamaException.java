package org.ketama;

/**
 * The base of every error this library throws; each subclass is named after one of core's
 * errors ({@code UnknownProfile} is {@link UnknownProfileException}, ...), generated from
 * {@code spec/errors.json} with the core's text as its message. An error that blames one
 * server input says which: {@link #serverLabel()}, and {@link #serverIndex()} (its place in
 * the list given).
 */
public class KetamaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String errorName;
    private int serverIndex = -1;
    private String serverLabel;

    /** An error of core's vocabulary {@code errorName} with this message. */
    protected KetamaException(String errorName, String message) {
        super(message);
        this.errorName = errorName;
    }

    /** The core's name: {@code "EmptyRing"}, {@code "UnknownProfile"}, ... */
    public String errorName() {
        return errorName;
    }

    /** The place, in the list given, of the server input to blame; -1 when none is. */
    public int serverIndex() {
        return serverIndex;
    }

    /** The label of the server input to blame, or null when none is. */
    public String serverLabel() {
        return serverLabel;
    }

    /** Names the server input to blame; returns this exception. */
    KetamaException blame(int index, String label) {
        this.serverIndex = index;
        this.serverLabel = label;
        return this;
    }
}
