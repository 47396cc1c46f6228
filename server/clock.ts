/** The server's clock (epoch ms): Date.now in production, a manual clock in tests. */
export type Clock = () => number;
