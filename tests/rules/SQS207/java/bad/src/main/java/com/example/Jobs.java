package com.example;

// What the worker does with a message's body.
final class Jobs {
    private Jobs() {}

    static void process(String body) {
        System.out.println("processing " + body);
    }
}
