export const handler = async (event) => {
  const batchItemFailures = [];
  for (const record of event.Records) {
    try {
      await processOrder(JSON.parse(record.body));
    } catch (err) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      throw err;
    }
  }
  return { batchItemFailures };
};

async function processOrder(order) {
  console.log(order.id);
}
