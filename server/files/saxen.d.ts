// saxen ships no types: the part of its API server/files/xlsx.ts uses.
declare module 'saxen' {
  type Decode = (text: string) => string;
  export class Parser {
    on(event: 'openTag', handler: (name: string, attributes: () => Record<string, string>, decode: Decode, selfClosing: boolean) => void): this;
    on(event: 'closeTag', handler: (name: string) => void): this;
    on(event: 'text', handler: (text: string, decode: Decode) => void): this;
    on(event: 'error' | 'warn', handler: (error: Error) => void): this;
    on(event: 'cdata' | 'comment' | 'question' | 'attention', handler: () => void): this;
    write(xml: string): this;
    end(): Error | undefined;
  }
}
