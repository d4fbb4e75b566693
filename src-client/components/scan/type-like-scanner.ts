/**
 * Puts a code into a field the way a keyboard-wedge scanner does: the text arrives in the field,
 * then Enter. Every code field already reads a scanner this way (Enter reads, moves on or saves),
 * so a code read by the camera takes exactly that path and no field needs a second one.
 */
export async function typeLikeScanner(input: HTMLInputElement, code: string) {
  input.focus()
  // React tracks the value it last rendered: setting it through the prototype's setter and sending
  // `input` is what makes it see a change (assigning `input.value` alone would be ignored).
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, code)
  input.dispatchEvent(new Event('input', { bubbles: true }))
  // Enter after the field has rendered the text, as a scanner's Enter comes after its keys.
  await new Promise((resolve) => setTimeout(resolve, 0))
  const enter = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true }
  input.dispatchEvent(new KeyboardEvent('keydown', enter))
  input.dispatchEvent(new KeyboardEvent('keyup', enter))
}
