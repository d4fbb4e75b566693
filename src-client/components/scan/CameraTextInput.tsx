import { TextInput, type TextInputProps } from '@mantine/core'
import { useRef } from 'react'
import { CameraScanButton } from './CameraScanButton'

/** A search or code field with the camera button at its end: a read code is typed in as a scanner would. */
export function CameraTextInput({ cameraTestId, ...props }: TextInputProps & { cameraTestId?: string }) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <TextInput
      {...props}
      ref={input}
      rightSection={props.rightSection ?? <CameraScanButton target={() => input.current} size="md" disabled={props.disabled} testId={cameraTestId} />}
      rightSectionPointerEvents="all"
    />
  )
}
