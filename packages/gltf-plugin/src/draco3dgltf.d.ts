// draco3dgltf ships no type declarations; slmesh only needs the decoder factory.
declare module 'draco3dgltf' {
  export function createDecoderModule(options?: object): Promise<unknown>;
  export function createEncoderModule(options?: object): Promise<unknown>;
  const draco: { createDecoderModule: typeof createDecoderModule; createEncoderModule: typeof createEncoderModule };
  export default draco;
}
