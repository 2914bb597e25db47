"""D2M programs to the TTMetal host program: buffers, program launches, kernel configs."""
