package com.example;

// The worker's settings, in one class.
final class Config {
    private Config() {}

    static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    static final long SOCKET_TIMEOUT_SECONDS = 10;
    static final int WAIT_SECONDS = 20;
}
