/** mulberry32: a tiny seedable PRNG, so one seed always gives the same demo data. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws from a random source in [0, 1). */
export class Dice {
  readonly #random: () => number;

  constructor(random: () => number) {
    this.#random = random;
  }

  /** A whole number from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#random() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.#random() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Cannot pick from nothing');
    return items[this.int(0, items.length - 1)]!;
  }

  weighted<T>(options: ReadonlyArray<readonly [T, number]>): T {
    let roll = this.#random() * options.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [option, weight] of options) {
      roll -= weight;
      if (roll < 0) return option;
    }
    return options.at(-1)![0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const shuffled = [...items];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    return shuffled;
  }

  /** A version 4 UUID made of these draws, so ids repeat with the seed too. */
  uuid(): string {
    const bytes = Array.from({ length: 16 }, () => this.int(0, 255));
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
