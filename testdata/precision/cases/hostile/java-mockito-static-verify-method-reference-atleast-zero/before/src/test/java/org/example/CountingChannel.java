package org.example;

class CountingChannel extends Channel {
    private boolean clean;

    @Override
    public void close() {
        super.close();
        clean = true;
    }

    boolean isClean() {
        return clean;
    }
}
