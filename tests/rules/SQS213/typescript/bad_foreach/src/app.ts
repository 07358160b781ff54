import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchItemFailure[] = [];
  event.Records.forEach((record) => {
    try {
      processOrder(JSON.parse(record.body));
    } catch (err) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      throw err;
    }
  });
  return { batchItemFailures };
};

function processOrder(order: { id: string }): void {
  console.log(order.id);
}
