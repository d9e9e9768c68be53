/** "1 delivery", "2 deliveries": a count and its noun, for the stories' sentences. */
export const plural = (count: number, noun: string, nouns = `${noun}s`) =>
  `${count} ${count === 1 ? noun : nouns}`;
