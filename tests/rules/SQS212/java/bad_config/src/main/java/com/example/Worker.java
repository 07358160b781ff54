package com.example;

// A worker whose HTTP client, configured in Config.java, gives up after 10 s on a 20 s long poll.

import java.time.Duration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;

public class Worker {
    private static final String JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
    private final SqsClient sqs = SqsClient.builder()
        .httpClient(ApacheHttpClient.builder().socketTimeout(Duration.ofSeconds(Config.SOCKET_TIMEOUT_SECONDS)).build())
        .build();

    public void poll() {
        while (true) {
            ReceiveMessageRequest request = ReceiveMessageRequest.builder()
                .queueUrl(JOBS)
                .waitTimeSeconds(Config.WAIT_SECONDS)
                .maxNumberOfMessages(10)
                .build();
            for (Message message : sqs.receiveMessage(request).messages()) {
                System.out.println(message.body());
                sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(JOBS).receiptHandle(message.receiptHandle()).build());
            }
        }
    }
}
