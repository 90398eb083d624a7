// The `stopword` package ships no type declarations; xtrust reads only its English list.
declare module 'stopword' {
  export const eng: readonly string[];
}
